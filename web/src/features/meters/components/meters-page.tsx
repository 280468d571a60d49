// Water Meters (spec §2): every meter; red critical, green Up, otherwise gray.
import { meterDot } from '../../../components/status-dot.tsx';
import { MeterListScreen } from './meter-list-screen.tsx';

export default function MetersPage() {
  return <MeterListScreen kind="all" dot={meterDot} />;
}
