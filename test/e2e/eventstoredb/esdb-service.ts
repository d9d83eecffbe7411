import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreDBClient, StreamNotFoundError } from '@eventstore/db-client';
import { PostgresSqlClient } from '@payouts/database';
import { createServerDatabase } from '@payouts/testing';
import { startStandIn, StandIn } from '../../../tools/eventstoredb/stand-in-server';
import { clientOf, gather } from '../../../tools/eventstoredb/testing/stand-in-client';
import { Call, client, OPERATOR_TOKEN } from '../api/gateway-harness';
import { freePort, RunningApp, startApp, stop, waitFor200 } from '../spawn-app';

export type AppName = 'api-gateway' | 'projector' | 'worker' | 'webhook-dispatcher';
export const APP_NAMES: readonly AppName[] = ['api-gateway', 'projector', 'worker', 'webhook-dispatcher'];

/**
 * The four apps as separate built processes (`npm run build` first) on EventStoreDB, here the
 * stand-in (docs/eventstoredb.md#the-stand-in) running in the test process on a fixed port with
 * a data directory of its own, so that stopping it and starting it again is an outage and a
 * return with the events kept. PostgreSQL (a fresh database) holds the read models and the
 * adapter's working state. No Kafka: the in-process transport, where the dispatcher relays itself.
 */
export class EsdbService {
  readonly apps = new Map<AppName, RunningApp>();
  /** Every process started, killed ones too: their output explains a failure. */
  private readonly started: { name: AppName; app: RunningApp }[] = [];
  readonly call: Call;
  /** For the checks that only the database can answer (the adapter's pending appends). */
  readonly db: PostgresSqlClient;

  private constructor(
    public standIn: StandIn,
    private readonly standInPort: number,
    private readonly dataDir: string,
    private readonly database: { url: string; drop: () => Promise<void> },
    private readonly gatewayPort: number,
    private readonly extraEnv: Record<string, string>,
  ) {
    this.call = client(this.gatewayUrl);
    this.db = new PostgresSqlClient({ connectionString: database.url, maxConnections: 2 });
  }

  static async start(extraEnv: Record<string, string> = {}): Promise<EsdbService> {
    const dataDir = mkdtempSync(join(tmpdir(), 'esdb-service-'));
    const [database, standInPort, gatewayPort] = await Promise.all([
      createServerDatabase(),
      freePort(),
      freePort(),
    ]);
    const standIn = await startStandIn({ port: standInPort, dataDir });
    const service = new EsdbService(standIn, standInPort, dataDir, database, gatewayPort, extraEnv);
    // One at a time: each migrates the database at start, and the first does the work.
    for (const name of APP_NAMES) await service.startApp(name);
    return service;
  }

  get gatewayUrl(): string {
    return `http://127.0.0.1:${this.gatewayPort}`;
  }

  get databaseUrl(): string {
    return this.database.url;
  }

  get connectionString(): string {
    return this.standIn.connectionString;
  }

  /** What an app, the audit CLI or any other process on this service is given. */
  get env(): Record<string, string> {
    return { DATABASE_URL: this.database.url, EVENTSTORE_CONNECTION_STRING: this.connectionString };
  }

  /** Starts `name` (the gateway always on the same port) and waits until it is ready. */
  async startApp(name: AppName): Promise<RunningApp> {
    const port = name === 'api-gateway' ? this.gatewayPort : await freePort();
    const app = await startApp(name, {
      ...this.env,
      OPERATOR_TOKEN,
      PORT: String(port),
      PUBLIC_BASE_URL: this.gatewayUrl,
      // Small pools: four processes, the audit and the test's own client share one server.
      DATABASE_POOL_SIZE: name === 'api-gateway' ? '5' : '2',
      WORKER_POLL_MS: '50',
      WEBHOOK_POLL_MS: '50',
      RAIL_SIMULATOR_DELAY_MS: '100',
      WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
      ...this.extraEnv,
    });
    const running = { ...app, url: `http://127.0.0.1:${port}` };
    this.apps.set(name, running);
    this.started.push({ name, app: running });
    await waitFor200(running, '/health/ready');
    return running;
  }

  /** SIGKILL: no shutdown hook runs, as when a node is lost. */
  async kill(name: AppName): Promise<void> {
    const app = this.apps.get(name);
    if (!app) throw new Error(`${name} is not running`);
    this.apps.delete(name);
    app.process.kill('SIGKILL');
    await app.exited;
  }

  /** EventStoreDB goes away: every call open on it ends, new ones cannot connect. */
  async stopStandIn(): Promise<void> {
    await this.standIn.stop();
  }

  /** EventStoreDB comes back on the same address with the events it had. */
  async restartStandIn(): Promise<void> {
    this.standIn = await startStandIn({ port: this.standInPort, dataDir: this.dataDir });
  }

  /** A fresh EventStoreDB client (the caller disposes it): how an operator would look into the store. */
  esdbClient(): EventStoreDBClient {
    return clientOf(this.standIn);
  }

  /** The stream names in $all, in order, as EventStoreDB itself lists them. */
  async streamsInAll(): Promise<string[]> {
    const esdb = this.esdbClient();
    try {
      const events = await gather(esdb.readAll({ maxCount: 100_000 }));
      return [...new Set(events.map((resolved) => resolved.event?.streamId ?? '?'))];
    } finally {
      await esdb.dispose();
    }
  }

  /** A stream's events (type and data) as EventStoreDB holds them; [] when the stream does not exist. */
  async streamEvents(streamId: string): Promise<{ type: string; data: unknown }[]> {
    const esdb = this.esdbClient();
    try {
      const events = await gather(esdb.readStream(streamId));
      return events.map((resolved) => ({ type: resolved.event?.type ?? '?', data: resolved.event?.data }));
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    } finally {
      await esdb.dispose();
    }
  }

  async streamTypes(streamId: string): Promise<string[]> {
    return (await this.streamEvents(streamId)).map((event) => event.type);
  }

  /** The adapter's appends decided and not yet written (eventstoredb_pending_appends). */
  async pendingAppends(): Promise<{ stream_id: string; expected_version: number }[]> {
    const { rows } = await this.db.query<{ stream_id: string; expected_version: number }>(
      'SELECT stream_id, expected_version FROM eventstoredb_pending_appends ORDER BY id',
    );
    return rows;
  }

  /** The last part of every process's output, for a failure message. */
  logs(names: readonly AppName[] = APP_NAMES): string {
    return this.started
      .filter((entry) => names.includes(entry.name))
      .map(
        (entry) => `--- ${entry.name} (pid ${entry.app.process.pid}):\n${entry.app.output().slice(-6_000)}`,
      )
      .join('\n');
  }

  /** SIGTERM to every app; the output of those that did not exit 0. Then the stand-in and the database. */
  async close(): Promise<string[]> {
    const running = [...this.apps.entries()];
    const codes = await Promise.all(running.map(([, app]) => stop(app)));
    await this.db.close();
    await this.standIn.stop();
    await this.database.drop();
    rmSync(this.dataDir, { recursive: true, force: true });
    return running.flatMap(([name, app], i) =>
      codes[i] === 0 ? [] : [`${name} exited ${codes[i]}:\n${app.output().slice(-4_000)}`],
    );
  }
}
