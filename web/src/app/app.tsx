// The application shell. The dashboard issue replaces the empty <main> with the
// router and providers, and moves these strings to i18next (STYLE.md item 10).
// Product name: spec §1; footer text: spec §2, Shell.
export function App() {
  return (
    <>
      <header style={{ padding: '0 1rem' }}>
        <h1>w-meter</h1>
      </header>
      <main style={{ flex: 1, padding: '0 1rem' }} />
      <footer style={{ padding: '1rem', textAlign: 'center' }}>
        © 2025 w-meter. All rights reserved.
      </footer>
    </>
  );
}
