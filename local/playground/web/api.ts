/** The playground server's calls, typed by protocol.ts. */

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json()) as T | {error: string};
  if (!response.ok) {
    const error = (body as {error?: string}).error;
    throw new Error(error ?? `HTTP ${response.status}`);
  }
  return body as T;
}

export async function get<T>(path: string): Promise<T> {
  return answer<T>(await fetch(path, {cache: 'no-store'}));
}

export async function post<T>(path: string, body: unknown): Promise<T> {
  return answer<T>(
    await fetch(path, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify(body),
    }),
  );
}

/** A file's bytes, as they are, under its name. */
export async function upload<T>(path: string, file: File): Promise<T> {
  return answer<T>(
    await fetch(`${path}?name=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      headers: {'content-type': 'application/octet-stream'},
      body: file,
    }),
  );
}
