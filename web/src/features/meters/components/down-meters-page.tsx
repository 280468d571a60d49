// Placeholder until this screen is built.
export default function DownMetersPage() {
  return <h1>DownMetersPage</h1>;
}
