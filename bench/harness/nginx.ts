import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sleep } from './stats';

export const NGINX = '/usr/sbin/nginx';

/** nginx from Debian: installed with apt-get when missing and running as root; otherwise a clear error. */
export function ensureNginx(log: (line: string) => void): void {
  if (existsSync(NGINX)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `nginx is missing: install it (Debian: sudo apt-get install -y nginx) so ${NGINX} exists, then run the benchmark again`,
    );
  }
  log('nginx is missing: apt-get install -y nginx');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'ignore', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], { stdio: 'ignore', env });
  if (!existsSync(NGINX)) throw new Error('apt-get install nginx did not provide /usr/sbin/nginx');
}

/** `nginx version: nginx/1.22.1` (nginx -v writes to stderr). */
export function nginxVersion(): string {
  const { stdout, stderr } = spawnSync(NGINX, ['-v'], { encoding: 'utf8' });
  return `${stderr}${stdout}`.trim() || 'nginx';
}

/**
 * Our own nginx instance: a config of its own under a temp prefix, `daemon off`, one loopback port,
 * pid and logs in the prefix. One worker process, like the gateway's one Node.js process; upstream
 * keep-alive as a production reverse proxy would use; no access log (the gateway's is off too).
 */
export async function startNginx(prefix: string, port: number, upstreamPort: number) {
  mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  const config = path.join(prefix, 'nginx.conf');
  writeFileSync(
    config,
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  keepalive_requests 100000;
  upstream hello { server 127.0.0.1:${upstreamPort}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://hello;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For $remote_addr;
    }
  }
}
`,
  );
  const child = spawn(NGINX, ['-p', prefix, '-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`${url}/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (attempt > 100) throw new Error(`nginx did not answer: ${stderr}`);
    await sleep(100);
  }
  return {
    url,
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      await exited;
    },
  };
}
