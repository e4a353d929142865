// Vitest global set-up: one throwaway PostgreSQL cluster for the whole run (team mode's tests), started
// once and stopped after; each test file takes fresh databases in it (`test/support/postgres/team-db.ts`).
import type { TestProject } from 'vitest/node';
import { type PgCluster, startPgCluster } from './pg-cluster.ts';

let cluster: PgCluster | undefined;

export async function setup(project: TestProject): Promise<void> {
  cluster = await startPgCluster();
  project.provide('pgAdminUrl', cluster.url());
}

export async function teardown(): Promise<void> {
  await cluster?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}
