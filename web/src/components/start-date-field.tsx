// The date picker itself; loaded lazily by StartDatePicker (the pickers are ~50 kB).
import 'dayjs/locale/fr';

import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';

import { DATE_PICKER_MAX, DATE_PICKER_MIN } from '../lib/constants.ts';

const MIN = dayjs(DATE_PICKER_MIN);
const MAX = dayjs(DATE_PICKER_MAX);
const ISO_DATE = 'YYYY-MM-DD';

export interface StartDateProps {
  /** `YYYY-MM-DD`, or null for no filter. */
  value: string | null;
  onChange: (value: string | null) => void;
}

export default function StartDateField({ value, onChange }: StartDateProps) {
  const { t, i18n } = useTranslation();
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={i18n.language}>
      <DatePicker
        label={t('list.startDate')}
        value={value ? dayjs(value) : null}
        minDate={MIN}
        maxDate={MAX}
        onChange={(next) => {
          if (next === null) onChange(null);
          else if (next.isValid() && !next.isBefore(MIN) && !next.isAfter(MAX)) onChange(next.format(ISO_DATE));
        }}
        slotProps={{ textField: { size: 'small' }, field: { clearable: true } }}
      />
    </LocalizationProvider>
  );
}
