#!/usr/bin/env node
// The hub process (main/team/hub/process.ts) with a stand-in core whose listener role is a plain HTTP server:
// real leadership, real signals, real exits, before the coordinator composes the real core.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hubProcess } from '#main/team/hub/process.ts';

await hubProcess((context) => ({
  async startCore() {
    let server: http.Server | undefined;
    return {
      async startListener() {
        const started = http.createServer((_request, response) => response.end('hub'));
        await new Promise<void>((resolve) => started.listen(context.port ?? 0, '127.0.0.1', resolve));
        server = started;
        return { url: `http://127.0.0.1:${(started.address() as AddressInfo).port}` };
      },
      async stopListener() {
        const stopping = server;
        server = undefined;
        if (stopping) await new Promise((resolve) => stopping.close(resolve));
      },
      async close() {},
    };
  },
}));
