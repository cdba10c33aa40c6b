import { build } from 'vite';

/** The end-to-end tests drive the console as served from console/dist: built from the sources first. */
export default async function buildConsole(): Promise<void> {
  await build({
    configFile: new URL('../../console/vite.config.ts', import.meta.url).pathname,
    logLevel: 'warn',
  });
}
