// The DataGrid behind `DataTable` is loaded lazily; its first import in a test
// file can outlast findBy's timeout. Call this at the top of a file (or a
// describe) whose tests look for a grid: it imports the grid once, up front.
import { beforeAll } from 'vitest';

export function preloadDataGrid(): void {
  beforeAll(async () => {
    await import('../components/data-table/data-grid-table.tsx');
  });
}
