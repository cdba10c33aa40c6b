import { describe, expect, it } from 'vitest';
import { ConfigError, configFrom } from '../../src/config.js';
import { EXTRACTIVE_MODEL } from '../../src/summarizers/extractive.js';
import { createSummarizer } from '../../src/summarizers/factory.js';

describe('summarizer from configuration', () => {
  it('is the offline extractive summarizer by default', () => {
    const summarizer = createSummarizer(configFrom());
    expect(summarizer.model).toBe(EXTRACTIVE_MODEL);
    expect(summarizer.maxSummaryTokens).toBe(512);
  });

  it('is the chat model named by SUMMARY_MODEL, with the budgets of the configuration', () => {
    const summarizer = createSummarizer(
      configFrom({ SUMMARY_MODEL: 'gpt-4o-mini', OPENAI_API_KEY: 'sk-x', SUMMARY_MAX_TOKENS: '300' }),
    );
    expect(summarizer.model).toBe('gpt-4o-mini');
    expect(summarizer.maxSummaryTokens).toBe(300);
  });

  it('refuses a model without key or endpoint, and a call budget too small for the summary', () => {
    expect(() => configFrom({ SUMMARY_MODEL: 'gpt-4o-mini' })).toThrow(ConfigError);
    expect(() =>
      configFrom({
        SUMMARY_MODEL: 'm',
        OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
        SUMMARY_CALL_TOKENS: '1500',
      }),
    ).toThrow(/SUMMARY_CALL_TOKENS: must be at least 2 \* SUMMARY_MAX_TOKENS \+ 1024 \(2048\)/);
    expect(() => configFrom({ SUMMARY_MAX_TOKENS: '0' })).toThrow(/SUMMARY_MAX_TOKENS/);
  });
});
