-- A thread's parent link includes project_id (D49). Deleting the parent keeps the thread as an
-- independent dialogue (D23): only thread_of is cleared, which needs PostgreSQL 15's column list
-- form of ON DELETE SET NULL (drizzle-kit cannot emit it).
ALTER TABLE "dialogues" ADD CONSTRAINT "dialogues_thread_of_fk" FOREIGN KEY ("project_id", "thread_of") REFERENCES "public"."dialogues"("project_id", "id") ON DELETE SET NULL ("thread_of");
