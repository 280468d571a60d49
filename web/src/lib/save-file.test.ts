import { describe, expect, it, vi } from 'vitest';

import { stubObjectUrls } from '../testing/downloads.ts';
import { filenameOf, saveBlob } from './save-file.ts';

describe("a download's file name", () => {
  it("is the server's, quoted or not", () => {
    expect(filenameOf('attachment; filename="meter-index-2026-11-30T23-00Z.csv"', 'x.csv')).toBe('meter-index-2026-11-30T23-00Z.csv');
    expect(filenameOf('attachment; filename=consumption.csv', 'x.csv')).toBe('consumption.csv');
    expect(filenameOf('attachment; filename="a \\"b\\".csv"', 'x.csv')).toBe('a "b".csv');
  });

  it('prefers the encoded form, and keeps no path', () => {
    expect(filenameOf("attachment; filename=\"plain.csv\"; filename*=UTF-8''relev%C3%A9.csv", 'x.csv')).toBe('relevé.csv');
    expect(filenameOf('attachment; filename="../../etc/passwd"', 'x.csv')).toBe('passwd');
  });

  it('falls back when the header names none', () => {
    expect(filenameOf(null, 'x.csv')).toBe('x.csv');
    expect(filenameOf('attachment', 'x.csv')).toBe('x.csv');
    expect(filenameOf('attachment; filename=".."', 'x.csv')).toBe('x.csv');
  });
});

describe('saving a blob', () => {
  let lent: unknown;

  it('clicks a link to an object URL named as asked, then lets it go', async () => {
    const blob = new Blob(['a,b\r\n']);
    const created = vi.fn<(b: Blob) => string>(() => 'blob:saved');
    const revoked = vi.fn<(url: string) => void>();
    stubObjectUrls(created, revoked);
    lent = created;
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { clicks.push(this); });
    saveBlob(blob, 'out.csv');
    expect(created).toHaveBeenCalledWith(blob);
    expect(clicks[0]?.download).toBe('out.csv');
    expect(clicks[0]?.href).toBe('blob:saved');
    await vi.waitFor(() => { expect(revoked).toHaveBeenCalledWith('blob:saved'); });
  });

  it('lends its object URLs to that test only', () => {
    expect(lent).toBeDefined();
    expect(Object.getOwnPropertyDescriptor(URL, 'createObjectURL')?.value).not.toBe(lent);
  });
});
