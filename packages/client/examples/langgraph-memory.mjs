import { Parley } from '@parley/client';
import { ParleyChatMessageHistory, ParleyStore } from '@parley/client/langchain';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { Annotation, END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';

const client = new Parley({ baseUrl: process.env.PARLEY_URL, apiKey: process.env.PARLEY_API_KEY });

// Long-term memory: LangGraph's store, kept as Parley memories (namespace ["users", id] is the
// Parley namespace "users/<id>"). The agent remembers what the user says about themselves and
// answers with what it remembers; any chat model could take the place of the answer node.
const State = Annotation.Root({ ...MessagesAnnotation.spec, userId: Annotation() });
const agent = new StateGraph(State)
  .addNode('remember', async (state, config) => {
    const said = String(state.messages.at(-1).content);
    if (said.startsWith('I '))
      await config.store.put(['users', state.userId], `fact-${Date.now()}`, { text: said });
    return {};
  })
  .addNode('answer', async (state, config) => {
    const facts = await config.store.search(['users', state.userId]);
    return { messages: [new AIMessage(`I remember: ${facts.map((item) => item.value.text).join('; ')}`)] };
  })
  .addEdge(START, 'remember')
  .addEdge('remember', 'answer')
  .addEdge('answer', END)
  .compile({ store: new ParleyStore({ client }) });

// The conversation itself: a LangChain chat history kept as a Parley dialogue.
const userId = `user-${Date.now()}`;
const history = new ParleyChatMessageHistory({ client, dialogueId: `thread-${userId}` });
for (const text of ['I like green tea.', 'What do you know about me?']) {
  await history.addMessage(new HumanMessage(text));
  const result = await agent.invoke({ messages: await history.getMessages(), userId });
  await history.addMessage(result.messages.at(-1));
}
const messages = await history.getMessages();
console.log(messages.map((m) => `${m.type}: ${m.content}`));
if (!String(messages.at(-1).content).includes('green tea')) throw new Error('the agent forgot');
