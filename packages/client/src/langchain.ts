// `@parley/client/langchain`: a LangChain.js chat history over a Parley dialogue, and a LangGraph.js
// store over Parley memories. Needs `@langchain/core` and `@langchain/langgraph-checkpoint` (which
// `@langchain/langgraph` brings).
export {
  ParleyChatMessageHistory,
  type ParleyChatMessageHistoryInput,
} from './adapters/langchain-history.js';
export {
  ParleyStore,
  type ParleyStoreInput,
  fromParleyNamespace,
  toParleyNamespace,
} from './adapters/langgraph-store.js';
