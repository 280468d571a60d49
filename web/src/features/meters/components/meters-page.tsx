// Water Meters (spec §2): every meter; red critical, green Up, otherwise gray.
// An Export menu beside the title offers the billing export.
import { meterDot } from '../../../components/status-dot.tsx';
import { ExportMenu } from './export-menu.tsx';
import { MeterListScreen } from './meter-list-screen.tsx';

export default function MetersPage() {
  return <MeterListScreen kind="all" dot={meterDot} titleAction={<ExportMenu />} />;
}
