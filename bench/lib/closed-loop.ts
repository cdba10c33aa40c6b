// A closed-loop load generator for request mixes that autocannon cannot express (a cycle of
// different requests per client), shared by the soak and backlog benchmarks.

export interface Step {
  name: string;
  send(): Promise<Response>;
}

export interface Tally {
  times: Map<string, number[]>;
  errors: number;
  firstError?: string;
  seconds: number;
}

/**
 * A closed loop: `workers` clients, each sending its steps in turn and the next only once the
 * previous one answered, until the time is up. Every answer's time is kept, per step.
 */
export async function closedLoop(workers: number, seconds: number, steps: Step[]): Promise<Tally> {
  const tally: Tally = { times: new Map(steps.map((step) => [step.name, []])), errors: 0, seconds };
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = 0; performance.now() < deadline; i++) {
        const step = steps[i % steps.length]!;
        const started = performance.now();
        try {
          const response = await step.send();
          await response.arrayBuffer();
          if (!response.ok) throw new Error(`${step.name}: ${response.status}`);
          tally.times.get(step.name)!.push(performance.now() - started);
        } catch (error) {
          tally.errors++;
          tally.firstError ??= (error as Error).message;
        }
      }
    }),
  );
  for (const times of tally.times.values()) times.sort((a, b) => a - b);
  return tally;
}

/** Requests answered per second, every step together. */
export const rateOf = (tally: Tally) =>
  [...tally.times.values()].reduce((sum, times) => sum + times.length, 0) / tally.seconds;
