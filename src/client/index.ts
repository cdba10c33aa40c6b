// The server's code and tools import the client from here; the client itself is the workspace
// package `@parley/client` (packages/client), installable on its own without the server.
export * from '@parley/client';
