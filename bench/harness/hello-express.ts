/** The bare Express 5 hello-world, the baseline of the claimant status read. */
import { express } from './workspace-modules';

const app = express()();
app.disable('x-powered-by');
app.get('/readyz', (_req: any, res: any) => res.json({ status: 'ready' }));
app.get('/hello/:id', (req: any, res: any) => res.json({ hello: 'world', id: req.params.id }));
const server = app.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
server.keepAliveTimeout = 65000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
