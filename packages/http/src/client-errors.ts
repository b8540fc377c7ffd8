import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpProblem, PROBLEM_CONTENT_TYPE, problems } from './problem';

function problemFor(code: string | undefined): HttpProblem {
  if (code === 'HPE_HEADER_OVERFLOW')
    return new HttpProblem(431, 'headers-too-large', 'Request header fields too large', 'The request headers exceed the limit');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return problems.requestTimeout('The request was not received in time');
  return problems.badRequest('The request is not valid HTTP (raw characters in the path must be percent-encoded)');
}

/**
 * Requests Node's HTTP parser refuses (e.g. a raw non-ASCII byte in the path) never reach Express;
 * Node would answer a bare 400. This answers the same statuses as problem+json instead.
 */
export function answerUnparseableRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node does: never write into a response that has already started on this socket.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const problem = problemFor(error.code);
    const body = JSON.stringify(problem.body());
    socket.end(
      `HTTP/1.1 ${problem.status} ${problem.title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
