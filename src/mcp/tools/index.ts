import type { McpTool } from '../tool-kit.js';
import {
  compactDialogue,
  createDialogue,
  endDialogue,
  forkDialogue,
  getContext,
  getDialogue,
  listDialogues,
  updateDialogue,
  updateState,
} from './dialogues.js';
import { eraseNamespace } from './erasures.js';
import { listEvents } from './events.js';
import { createMemory, deleteMemory, getMemory, listMemories } from './memories.js';
import { addMessages, getMessage, listMessages } from './messages.js';
import { search } from './search.js';

/** The tools of D42, get_context (D81) and list_events (D71). */
export const parleyTools: readonly McpTool[] = [
  createDialogue,
  listDialogues,
  getDialogue,
  getContext,
  updateDialogue,
  endDialogue,
  compactDialogue,
  updateState,
  // D160
  forkDialogue,
  addMessages,
  listMessages,
  getMessage,
  search,
  createMemory,
  listMemories,
  getMemory,
  deleteMemory,
  listEvents,
  // D162
  eraseNamespace,
];
