/** A real HTTP server on 127.0.0.1 for tests: routes map a path to a handler. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestServer {
  readonly origin: string;
  /** Paths requested, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startServer(routes: Record<string, Route>): Promise<TestServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    requests.push(path);
    const route = routes[path];
    if (route) route(req, res);
    else {
      res.statusCode = 404;
      res.end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => closeServer(server),
  };
}

export function text(
  body: string | Uint8Array,
  status = 200,
  headers: Record<string, string> = {},
): Route {
  return (_req, res) => {
    res.writeHead(status, { "content-type": "text/plain", ...headers });
    res.end(body);
  };
}

export function redirect(location: string, status = 301): Route {
  return (_req, res) => {
    res.writeHead(status, { location });
    res.end();
  };
}

/** Closes `server` now: open keep-alive connections are ended rather than waited for. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
