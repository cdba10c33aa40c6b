import type { McpTool } from '../tool-kit.js';

/** The tools of D42. */
export const parleyTools: readonly McpTool[] = [];
