// Downloads in tests: what a page saves (each blob handed to the browser and
// the name it is saved under), and a CSV answer named by Content-Disposition.
import { HttpResponse } from 'msw';
import { onTestFinished, vi } from 'vitest';

export interface Saved {
  name: string;
  blob: Blob | undefined;
}

/**
 * Object URLs made by `create` and let go to `revoke`, for the running test
 * only (jsdom has neither, and files share a window: see vite.config.ts).
 */
export function stubObjectUrls(create: (blob: Blob) => string, revoke: (url: string) => void = () => undefined): void {
  const keys = ['createObjectURL', 'revokeObjectURL'] as const;
  const before = keys.map((key) => Object.getOwnPropertyDescriptor(URL, key));
  URL.createObjectURL = create;
  URL.revokeObjectURL = revoke;
  onTestFinished(() => {
    keys.forEach((key, i) => {
      const descriptor = before[i];
      if (descriptor) Object.defineProperty(URL, key, descriptor);
      else Reflect.deleteProperty(URL, key);
    });
  });
}

/** Catches every file the page saves from now on, in order. */
export function catchDownloads(): Saved[] {
  const saved: Saved[] = [];
  const blobs = new Map<string, Blob>();
  stubObjectUrls((blob: Blob) => {
    const url = `blob:saved-${String(blobs.size)}`;
    blobs.set(url, blob);
    return url;
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href) });
  });
  return saved;
}

/** A CSV download as the exports answer it. */
export function csvFile(filename: string, body: string): HttpResponse<string> {
  return new HttpResponse(body, {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename}"` },
  });
}
