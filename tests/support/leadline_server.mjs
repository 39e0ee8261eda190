// The real leadline binary started by the Node tests (browser, webhook signatures): `serve` on a
// free loopback port, with the URL it prints once it accepts requests.
import { spawn } from 'node:child_process';

// Starts `binary serve --listen 127.0.0.1:0 ...args`; `ready` resolves with the base URL, or
// rejects when the server exits or prints nothing within 30 s. `output()` is what it printed.
export function startServer(binary, args) {
  const server = spawn(binary, ['serve', '--listen', '127.0.0.1:0', ...args],
                       { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 30 s:\n${output}`)),
                             30_000);
    const onData = (chunk) => {
      output += chunk;
      const match = /leadline listening on (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(`http://${match[1]}`);
      }
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    server.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`leadline exited (${code}):\n${output}`));
    });
  });
  return { server, ready, output: () => output };
}
