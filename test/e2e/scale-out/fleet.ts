import { RunningApp, startApp, stop, waitFor200 } from '../spawn-app';

/** The four apps, each run as several processes on one database and one Kafka broker. */
export type AppName = 'api-gateway' | 'worker' | 'projector' | 'webhook-dispatcher';

export interface Member {
  app: AppName;
  /** `api-gateway#2`: the app and its place in the fleet, for messages and figures. */
  name: string;
  running: RunningApp;
  killed: boolean;
}

/**
 * Several processes of each app, as a deployment scaled out would run them. Pool sizes are small
 * so that the whole fleet (nine processes) stays well inside the server's max_connections while
 * other suites share it (docs/operations.md#scaling-out, the connection budget).
 */
export class Fleet {
  readonly members: Member[] = [];

  private constructor(private readonly env: Record<string, string>) {}

  static async start(counts: Record<AppName, number>, env: Record<string, string>): Promise<Fleet> {
    const fleet = new Fleet(env);
    for (const [app, count] of Object.entries(counts) as [AppName, number][]) {
      for (let i = 1; i <= count; i++) await fleet.add(app, i);
    }
    await Promise.all(fleet.members.map((member) => waitFor200(member.running, '/health/ready', 90_000)));
    return fleet;
  }

  /** The live processes of one app. */
  live(app: AppName): Member[] {
    return this.members.filter((member) => member.app === app && !member.killed);
  }

  /** SIGKILL, as a node lost or an out-of-memory kill would end it: no shutdown hook runs. */
  async kill(member: Member): Promise<void> {
    member.killed = true;
    member.running.process.kill('SIGKILL');
    await member.running.exited;
  }

  /** A replacement for a killed process, as an orchestrator would start one. */
  async replace(app: AppName): Promise<Member> {
    const member = await this.add(app, this.members.filter((m) => m.app === app).length + 1);
    await waitFor200(member.running, '/health/ready', 90_000);
    return member;
  }

  /** SIGTERM to every live process; the names of those that did not exit 0, with their output. */
  async stopAll(): Promise<string[]> {
    const live = this.members.filter((member) => !member.killed);
    const codes = await Promise.all(live.map((member) => stop(member.running)));
    return live.flatMap((member, i) =>
      codes[i] === 0 ? [] : [`${member.name} exited ${codes[i]}:\n${member.running.output().slice(-4000)}`],
    );
  }

  private async add(app: AppName, index: number): Promise<Member> {
    const pool = app === 'api-gateway' ? '5' : '2';
    const running = await startApp(app, { ...this.env, DATABASE_POOL_SIZE: pool });
    const member = { app, name: `${app}#${index}`, running, killed: false };
    this.members.push(member);
    return member;
  }
}
