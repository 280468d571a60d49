// Child processes of the e2e run: started on 127.0.0.1, stopped at the end,
// their output kept in a log file for when something fails.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => { resolve(port); });
    });
  });
}

export function start(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  stdin?: string,
): ChildProcess {
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const log = createWriteStream(logFile, { flags: 'a' });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  if (stdin !== undefined) feed(child, stdin);
  return child;
}

/** Runs a command to completion; rejects with its output when it fails. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${String(code)}:\n${output}`));
    });
    feed(child, stdin);
  });
}

// A child that exits without reading its input (mosquitto_pub given its
// message as an argument) closes the pipe: that is not a failure of the
// test, its exit code says whether the command worked.
function feed(child: ChildProcess, stdin: string): void {
  child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  child.stdin?.end(stdin);
}

export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (child?.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
