import { execFile } from 'node:child_process';
import { appendFileSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTcpProxy, freePort, type TcpProxy } from '@platform/testing';

const run = promisify(execFile);

/** Debian's PostgreSQL server binaries (the newest installed major version). */
function serverBin(): string {
  const majors = readdirSync('/usr/lib/postgresql')
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  if (majors.length === 0) throw new Error('no PostgreSQL server under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${majors[0]}/bin`;
}

export interface PostgresPair {
  /** The stand-in for CloudNativePG's `-rw` Service: the address clients use, pointed at the primary. */
  endpoint: TcpProxy;
  /** A database URL through the endpoint. */
  urlFor(database: string): string;
  /** A database URL straight at the server that is primary now (after a failover, the promoted standby). */
  primaryUrlFor(database: string): string;
  createDatabase(name: string): Promise<void>;
  /** SIGKILL of the primary's postmaster: its backends die with it, unflushed work is gone. */
  killPrimary(): void;
  /** Promotes the standby and points the endpoint at it. */
  promoteStandby(): Promise<void>;
  stop(): Promise<void>;
}

interface Server {
  dir: string;
  port: number;
}

/**
 * A primary and a streaming standby (`pg_basebackup -R`) of Debian's PostgreSQL, run as the postgres user
 * in temporary directories on ports of their own, behind one TCP endpoint. `synchronous` sets
 * `synchronous_standby_names`, so a commit is acknowledged only once the standby has it.
 */
export async function startPostgresPair(options: { synchronous: boolean }): Promise<PostgresPair> {
  const bin = serverBin();
  const root = mkdtempSync(path.join(tmpdir(), 'pg-pair-'));
  const { uid, gid } = await postgresUser();
  chownSync(root, uid, gid);
  const asPostgres = (command: string, args: string[]) =>
    run('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args], { cwd: root, timeout: 120000 });
  const primary: Server = { dir: path.join(root, 'primary'), port: await freePort() };
  const standby: Server = { dir: path.join(root, 'standby'), port: await freePort() };
  const start = (server: Server) => asPostgres('pg_ctl', ['-D', server.dir, '-l', `${server.dir}.log`, '-w', '-t', '60', 'start']);

  await asPostgres('initdb', ['-D', primary.dir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  appendFileSync(
    path.join(primary.dir, 'postgresql.conf'),
    [
      `port = ${primary.port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${root}'`,
      'wal_level = replica',
      'max_wal_senders = 5',
      'max_connections = 200',
      'fsync = on',
      options.synchronous ? "synchronous_standby_names = 'standby'" : '',
      '',
    ].join('\n'),
  );
  await start(primary);
  await asPostgres('pg_basebackup', [
    '-d',
    `host=127.0.0.1 port=${primary.port} user=postgres application_name=standby`,
    '-D',
    standby.dir,
    '-R',
    '-X',
    'stream',
  ]);
  // promoted, it has no standby of its own: a synchronous_standby_names copied from the primary would hang every commit
  appendFileSync(path.join(standby.dir, 'postgresql.conf'), `port = ${standby.port}\nsynchronous_standby_names = ''\n`);
  await start(standby);

  const endpoint = await createTcpProxy('127.0.0.1', primary.port);
  let current = primary;
  const psql = (server: Server, sql: string) =>
    run(path.join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(server.port), '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-Atc', sql], {
      timeout: 60000,
    });
  // the standby is streaming (and, when synchronous, acknowledged as the synchronous one) before anything runs
  for (let attempt = 0; ; attempt++) {
    const { stdout } = await psql(primary, "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'");
    if (stdout.trim() === (options.synchronous ? 'sync' : 'async')) break;
    if (attempt > 100) throw new Error(`standby not replicating (state: ${stdout.trim() || 'none'})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const url = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    endpoint,
    urlFor: (database) => url(endpoint.port, database),
    primaryUrlFor: (database) => url(current.port, database),
    async createDatabase(name) {
      await psql(primary, `CREATE DATABASE "${name}"`);
    },
    killPrimary() {
      const pid = Number(readFileSync(path.join(primary.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
      // the endpoint forgets connections to the dead server and refuses new ones until it has a primary again
      endpoint.cut();
    },
    async promoteStandby() {
      await asPostgres('pg_ctl', ['-D', standby.dir, '-w', '-t', '60', 'promote']);
      current = standby;
      endpoint.pointAt('127.0.0.1', standby.port);
      endpoint.restore();
    },
    async stop() {
      await endpoint.close();
      for (const server of [primary, standby])
        await asPostgres('pg_ctl', ['-D', server.dir, '-m', 'immediate', 'stop']).catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const { stdout } = await run('id', ['postgres']);
  const uid = Number(/uid=(\d+)/.exec(stdout)?.[1]);
  const gid = Number(/gid=(\d+)/.exec(stdout)?.[1]);
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error(`no postgres user: ${stdout}`);
  return { uid, gid };
}
