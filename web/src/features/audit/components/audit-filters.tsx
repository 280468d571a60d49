// The filter bar above the audit grid. Text and times apply 300 ms after the
// last key (an action chosen from the suggestions and an outcome at once);
// every change goes to the URL, and so back to the first page.
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { instantOf, localDateTimeInput } from '../../../lib/local-date-time.ts';
import { ACTION_SUGGESTIONS, isFiltered, NO_FILTER, type AuditFilter } from '../api/audit-view.ts';
import { useDraft } from '../hooks/use-draft.ts';
import type { TimeErrors } from '../hooks/use-time-errors.ts';

interface Props {
  filter: AuditFilter;
  onFilter: (patch: Partial<AuditFilter>) => void;
  /** The server's refusals of the times. */
  errors: TimeErrors;
  /** Beside the filters: the download. */
  children?: ReactNode;
}

const sameText = (text: string, value: string) => text.trim() === value;

function TextFilter({ label, value, onApply }: { label: string; value: string; onApply: (value: string) => void }) {
  const draft = useDraft({ value, apply: (text) => { onApply(text.trim()); }, same: sameText });
  return (
    <TextField
      size="small"
      label={label}
      value={draft.text}
      onChange={(event) => { draft.change(event.target.value); }}
      slotProps={{ htmlInput: { spellCheck: false } }}
      sx={{ width: 200 }}
    />
  );
}

function ActionFilter({ value, onApply }: { value: string; onApply: (value: string) => void }) {
  const { t } = useTranslation('audit');
  const draft = useDraft({ value, apply: (text) => { onApply(text.trim()); }, same: sameText });
  return (
    <Autocomplete
      freeSolo
      size="small"
      options={ACTION_SUGGESTIONS}
      inputValue={draft.text}
      onInputChange={(_event, next, reason) => {
        if (reason === 'input') draft.change(next);
        else if (reason === 'selectOption' || reason === 'clear') draft.commit(next);
      }}
      renderInput={(params) => (
        <TextField {...params} label={t('filters.action')} helperText={t('filters.actionHint')} />
      )}
      sx={{ width: 220 }}
    />
  );
}

/** A time in the user's zone: `value` is the ISO instant applied. */
function TimeFilter({ label, value, error, onApply }: { label: string; value: string; error: string | undefined; onApply: (value: string) => void }) {
  const show = (iso: string) => {
    const at = Date.parse(iso);
    return Number.isNaN(at) ? '' : localDateTimeInput(new Date(at));
  };
  const isoOf = (text: string) => instantOf(text)?.toISOString() ?? '';
  const draft = useDraft({
    value,
    apply: (text) => { onApply(isoOf(text)); },
    show,
    same: (text, iso) => isoOf(text) === iso || (text === '' && iso === ''),
  });
  return (
    <TextField
      type="datetime-local"
      size="small"
      label={label}
      value={draft.text}
      onChange={(event) => { draft.change(event.target.value); }}
      error={error !== undefined}
      helperText={error}
      slotProps={{ inputLabel: { shrink: true } }}
      sx={{ width: 230 }}
    />
  );
}

export function AuditFilters({ filter, onFilter, errors, children }: Props) {
  const { t } = useTranslation('audit');
  const known = ['', 'ok', 'refused'].includes(filter.outcome);
  return (
    <Box
      role="group"
      aria-label={t('filters.label')}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', mb: 2 }}
    >
      <TextFilter label={t('filters.actor')} value={filter.actor} onApply={(actor) => { onFilter({ actor }); }} />
      <ActionFilter value={filter.action} onApply={(action) => { onFilter({ action }); }} />
      <TextFilter label={t('filters.target')} value={filter.target} onApply={(target) => { onFilter({ target }); }} />
      <TextField
        select
        size="small"
        label={t('filters.outcome')}
        value={filter.outcome}
        onChange={(event) => { onFilter({ outcome: event.target.value }); }}
        sx={{ width: 180 }}
      >
        <MenuItem value="">{t('filters.anyOutcome')}</MenuItem>
        <MenuItem value="ok">{t('outcome.ok')}</MenuItem>
        <MenuItem value="refused">{t('filters.refused')}</MenuItem>
        {known ? null : <MenuItem value={filter.outcome}>{t('outcome.refused', { code: filter.outcome })}</MenuItem>}
      </TextField>
      <TimeFilter label={t('filters.from')} value={filter.from} error={errors.from} onApply={(from) => { onFilter({ from }); }} />
      <TimeFilter label={t('filters.to')} value={filter.to} error={errors.to} onApply={(to) => { onFilter({ to }); }} />
      {isFiltered(filter) ? (
        <Button size="small" onClick={() => { onFilter(NO_FILTER); }} sx={{ alignSelf: 'center' }}>
          {t('filters.clear')}
        </Button>
      ) : null}
      {children ? <Box sx={{ ml: 'auto', alignSelf: 'center' }}>{children}</Box> : null}
    </Box>
  );
}
