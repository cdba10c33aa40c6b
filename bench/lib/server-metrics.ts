// Figures a benchmark reads from a running server's /metrics.

/** A value of the server's Prometheus text (the sum over the series of `name` with `labels`). */
export async function metric(baseUrl: string, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const matches = labels
      ? line.startsWith(`${name}${labels} `)
      : line.startsWith(`${name} `) || line.startsWith(`${name}{`);
    if (matches) {
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return sum;
}

/** The server's resident memory, as its own metrics report it. */
export const rssMb = async (baseUrl: string) =>
  (await metric(baseUrl, 'parley_process_resident_memory_bytes')) / 2 ** 20;
