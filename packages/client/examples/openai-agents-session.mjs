import { Parley } from '@parley/client';
import { ParleySession } from '@parley/client/openai-agents';
import { Agent, Usage, run, setTracingDisabled } from '@openai/agents';

const client = new Parley({ baseUrl: process.env.PARLEY_URL, apiKey: process.env.PARLEY_API_KEY });

// Any model does (by default the SDK calls OpenAI); a stand-in here, so that the example runs
// without a key: it answers with how many user messages it was sent, the history included.
setTracingDisabled(true);
const model = {
  async getResponse(request) {
    const users = request.input.filter((item) => item.role === 'user').length;
    return {
      usage: new Usage(),
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: `You have sent ${users} messages.` }],
        },
      ],
    };
  },
  getStreamedResponse() {
    throw new Error('not used here: run() is not asked to stream');
  },
};
const agent = new Agent({ name: 'Assistant', instructions: 'Be brief.', model });

// The session is a Parley dialogue under the session id (a new id when none is given).
const session = new ParleySession({ client, sessionId: `session-${Date.now()}` });
await run(agent, 'Hello!', { session });
const second = await run(agent, 'Do you remember me?', { session });
console.log(second.finalOutput);
if (second.finalOutput !== 'You have sent 2 messages.') throw new Error('the session was not used');
console.log((await session.getItems()).length, 'items in', await session.getSessionId());
