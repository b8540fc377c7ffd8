import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NGINX } from '../../../bench/harness/nginx';
import { waitForPort } from './stack';

export interface Balanced {
  /** The port nginx listens on for this upstream. */
  port: number;
  /** The replicas' ports, balanced round-robin. */
  replicas: number[];
}

/**
 * One nginx (Debian's, as the bench runs it) listening on one port per upstream, each balancing round-robin
 * over its replicas: the stand-in for a load balancer in front of the gateways and for the Kubernetes
 * Services in front of the service replicas. A refused connection (a killed replica) is passed to the next
 * replica, as nginx does for any request not yet sent upstream; a request already sent is not retried.
 * No replica is ever marked down (max_fails=0): while one is being probed after a failure nginx would
 * answer 502 "no live upstreams" to everything else, which a Kubernetes Service does not do.
 */
export async function startBalancer(
  prefix: string,
  upstreams: Record<string, Balanced>,
): Promise<{ urls: Record<string, string>; stop(): Promise<void> }> {
  mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  const config = path.join(prefix, 'nginx.conf');
  const blocks = Object.entries(upstreams).map(
    ([name, { port, replicas }]) => `
  upstream ${name} { ${replicas.map((replica) => `server 127.0.0.1:${replica} max_fails=0;`).join(' ')} keepalive 32; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://${name};
      proxy_http_version 1.1;
      proxy_request_buffering off;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_read_timeout 60s;
    }
  }`,
  );
  writeFileSync(
    config,
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_max_body_size 30m;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
${blocks.join('\n')}
}
`,
  );
  const child = spawn(NGINX, ['-p', prefix, '-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const urls = Object.fromEntries(Object.entries(upstreams).map(([name, { port }]) => [name, `http://127.0.0.1:${port}`]));
  for (const { port } of Object.values(upstreams)) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    await waitForPort('127.0.0.1', port, 10000).catch((error: Error) => {
      throw new Error(`${error.message}: ${stderr}`);
    });
  }
  return {
    urls,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      await exited;
    },
  };
}
