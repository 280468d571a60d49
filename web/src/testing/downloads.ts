// Downloads in tests: what a page saves (each blob handed to the browser and
// the name it is saved under), and a CSV answer named by Content-Disposition.
import { HttpResponse } from 'msw';
import { vi } from 'vitest';

export interface Saved {
  name: string;
  blob: Blob | undefined;
}

/** Catches every file the page saves from now on, in order. */
export function catchDownloads(): Saved[] {
  const saved: Saved[] = [];
  const blobs = new Map<string, Blob>();
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:saved-${String(blobs.size)}`;
    blobs.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = () => undefined;
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
