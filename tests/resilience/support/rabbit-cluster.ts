import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@platform/testing';

const run = promisify(execFile);
/** Debian's rabbitmq-server scripts, run as this user (the Debian wrapper in /usr/sbin would switch users). */
const RABBITMQ_BIN = '/usr/lib/rabbitmq/bin';

export interface RabbitNode {
  name: string;
  port: number;
  env: NodeJS.ProcessEnv;
  pidFile: string;
}

export interface RabbitCluster {
  nodes: RabbitNode[];
  /** AMQP_URL for the cluster: every node's address, separated by commas (the services try each in turn). */
  amqpUrl: string;
  /** The node that leads a quorum queue's Raft group. */
  leaderOf(queue: string): Promise<RabbitNode>;
  /** SIGKILL: the node's Erlang VM dies at once, with no goodbye to its peers or clients. */
  kill(node: RabbitNode): void;
  /** Starts a killed node again on its own data; it rejoins the cluster. */
  restart(node: RabbitNode): Promise<void>;
  stop(): Promise<void>;
}

async function rabbitmqctl(node: RabbitNode, ...args: string[]): Promise<string> {
  const { stdout } = await run(`${RABBITMQ_BIN}/rabbitmqctl`, ['-n', node.name, ...args], { env: node.env, timeout: 120000 });
  return stdout;
}

async function startNode(node: RabbitNode): Promise<void> {
  await run(`${RABBITMQ_BIN}/rabbitmq-server`, ['-detached'], { env: node.env, timeout: 60000 });
  await rabbitmqctl(node, 'wait', node.pidFile, '--timeout', '120');
}

/**
 * A RabbitMQ cluster of `size` nodes on this machine, from Debian's `rabbitmq-server` package: distinct node
 * names and ports, one Erlang cookie of its own (in a private HOME), data under a temporary directory. The
 * machine's own broker on 5672 is untouched.
 */
export async function startRabbitCluster(size = 3): Promise<RabbitCluster> {
  const root = mkdtempSync(path.join(tmpdir(), 'rabbit-cluster-'));
  const home = path.join(root, 'home');
  mkdirSync(home);
  writeFileSync(path.join(home, '.erlang.cookie'), `cluster${Math.random().toString(36).slice(2)}`);
  chmodSync(path.join(home, '.erlang.cookie'), 0o400);
  const suffix = path
    .basename(root)
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase();
  const nodes: RabbitNode[] = [];
  for (let i = 1; i <= size; i++) {
    const dir = path.join(root, `node${i}`);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'enabled_plugins'), '[].');
    const port = await freePort();
    const name = `rc${suffix}n${i}@localhost`;
    const pidFile = path.join(dir, 'pid');
    nodes.push({
      name,
      port,
      pidFile,
      env: {
        ...process.env,
        HOME: home,
        RABBITMQ_NODENAME: name,
        RABBITMQ_NODE_PORT: String(port),
        RABBITMQ_DIST_PORT: String(await freePort()),
        RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
        RABBITMQ_LOG_BASE: path.join(dir, 'log'),
        RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
        RABBITMQ_PID_FILE: pidFile,
        RABBITMQ_CONFIG_FILE: path.join(dir, 'rabbitmq'),
      },
    });
  }
  const cluster: RabbitCluster = {
    nodes,
    amqpUrl: nodes.map((node) => `amqp://guest:guest@127.0.0.1:${node.port}`).join(','),
    async leaderOf(queue) {
      const alive = nodes.find((node) => isAlive(node)) ?? nodes[0];
      const rows = JSON.parse(await rabbitmqctl(alive, 'list_queues', 'name', 'leader', '--formatter', 'json')) as {
        name: string;
        leader: string;
      }[];
      const leader = rows.find((row) => row.name === queue)?.leader;
      const node = nodes.find((candidate) => candidate.name === leader);
      if (!node) throw new Error(`no leader found for ${queue} (got ${leader ?? 'nothing'})`);
      return node;
    },
    kill(node) {
      process.kill(pidOf(node), 'SIGKILL');
    },
    restart: startNode,
    async stop() {
      for (const node of nodes) if (isAlive(node)) await rabbitmqctl(node, 'stop').catch(() => undefined);
      for (const node of nodes) if (isAlive(node)) process.kill(pidOf(node), 'SIGKILL');
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    await startNode(nodes[0]);
    for (const node of nodes.slice(1)) {
      await startNode(node);
      await rabbitmqctl(node, 'stop_app');
      await rabbitmqctl(node, 'join_cluster', nodes[0].name);
      await rabbitmqctl(node, 'start_app');
    }
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

function pidOf(node: RabbitNode): number {
  return Number(readFileSync(node.pidFile, 'utf8').trim());
}

function isAlive(node: RabbitNode): boolean {
  try {
    process.kill(pidOf(node), 0);
    return true;
  } catch {
    return false;
  }
}
