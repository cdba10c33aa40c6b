// Reading a server's JSON, and walking a dialogue's pages to a cursor deep inside it.

export async function json(url: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  if (!response.ok)
    throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The cursor of the page that starts `depth` messages into the dialogue, found by walking it. */
export async function cursorAtDepth(
  api: string,
  auth: Record<string, string>,
  dialogueId: string,
  depth: number,
): Promise<string> {
  let next: string | null = null;
  for (let seen = 0; seen < depth; ) {
    const limit = Math.min(200, depth - seen);
    const page = (await json(
      `${api}/messages?dialogueId=${dialogueId}&limit=${limit}${next ? `&next=${next}` : ''}`,
      {
        headers: auth,
      },
    )) as { items: unknown[]; next: string | null };
    seen += page.items.length;
    if (!page.next) throw new Error('dialogue shorter than the requested depth');
    next = page.next;
  }
  return next!;
}
