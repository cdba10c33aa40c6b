import type { Config } from '../config.js';
import { createExtractiveSummarizer } from './extractive.js';
import { createOpenAiSummarizer } from './openai.js';
import type { Summarizer } from './summarizer.js';

/** D22: the configured chat model writes summaries when SUMMARY_MODEL is set; the offline extractive summarizer otherwise. */
export function createSummarizer(config: Config): Summarizer {
  if (!config.SUMMARY_MODEL)
    return createExtractiveSummarizer({ maxSummaryTokens: config.SUMMARY_MAX_TOKENS });
  return createOpenAiSummarizer({
    model: config.SUMMARY_MODEL,
    apiKey: config.OPENAI_API_KEY,
    baseURL: config.OPENAI_BASE_URL,
    maxSummaryTokens: config.SUMMARY_MAX_TOKENS,
    callTokens: config.SUMMARY_CALL_TOKENS,
    timeoutMs: config.SUMMARY_TIMEOUT_MS,
    retries: config.SUMMARY_RETRIES,
  });
}
