/**
 * The bare upstream of the proxy comparison: Node's own http server answering every path with a small
 * JSON body (keep-alive), once it has read the request body (so a streamed upload is carried all the way
 * through every proxy in front). The gateway, the bare proxy hop and nginx all proxy to it.
 */
import http from 'node:http';

const body = JSON.stringify({ hello: 'world' });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 65000;
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
