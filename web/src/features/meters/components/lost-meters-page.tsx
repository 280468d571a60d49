// Lost Water Meters (spec §2): the server's lost list.
import { lostDot, MeterListScreen } from './meter-list-screen.tsx';

export default function LostMetersPage() {
  return <MeterListScreen kind="lost" dot={lostDot} />;
}
