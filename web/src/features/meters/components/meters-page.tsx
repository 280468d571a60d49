// Placeholder until this screen is built.
export default function MetersPage() {
  return <h1>MetersPage</h1>;
}
