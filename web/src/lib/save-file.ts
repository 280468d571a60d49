// Saving a download the dashboard fetched itself (with the bearer token, so
// not through a plain link): the blob is handed to the browser under a name,
// the server's from `Content-Disposition` when it sends one.

/** Hands `blob` to the browser as a download called `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => { URL.revokeObjectURL(url); }, 0);
}

/** Keeps a name a file system accepts: no path, no control characters. */
function safe(name: string): string | null {
  const base = name.split(/[/\\]/).pop()?.replace(/[\p{Cc}]/gu, '').trim() ?? '';
  return base === '' || base === '.' || base === '..' ? null : base;
}

/**
 * The file name a `Content-Disposition` header gives (`filename*=UTF-8''…`
 * first, then `filename="…"` or a bare token), or `fallback`.
 */
export function filenameOf(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)?.[1];
  if (extended) {
    try {
      return safe(decodeURIComponent(extended.trim())) ?? fallback;
    } catch {
      // A malformed escape: try the plain parameter.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header)?.[1];
  if (quoted !== undefined) return safe(quoted.replace(/\\(.)/g, '$1')) ?? fallback;
  const token = /filename\s*=\s*([^;\s]+)/.exec(header)?.[1];
  return (token && safe(token)) ?? fallback;
}
