/**
 * The floor of the gateway's proxy path: a bare Express 5 app with one `createProxyMiddleware` (keep-alive
 * agent) to UPSTREAM_URL, and nothing else — no access decision, header hygiene, logs, metrics or security
 * headers. The gateway is measured against it: what it costs beyond this is its own middleware.
 */
import http from 'node:http';
import { express, httpProxyMiddleware } from './workspace-modules';

const { createProxyMiddleware } = httpProxyMiddleware();
const app = express()();
app.use(createProxyMiddleware({ target: process.env.UPSTREAM_URL, agent: new http.Agent({ keepAlive: true }), changeOrigin: true }));
const server = app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
server.keepAliveTimeout = 65000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
