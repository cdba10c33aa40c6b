-- D176: the full-text indexes keep at most 256 kB of recent rows in their pending list (the
-- default is 4 MB): every search reads the whole pending list, and while it is large the planner
-- prices the index so high that it reads the project's every row instead. A storage parameter:
-- set without rebuilding the index.
ALTER INDEX "dialogues_search_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX "memories_search_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX "messages_search_idx" SET (gin_pending_list_limit = 256);
