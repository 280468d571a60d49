// The top bar's search box (spec §2, Search box): a term and a radius; Enter
// or the button searches, then the results screen opens with the devices as
// navigation state. A blank term, an empty answer or a failure (not a
// cancellation) opens it as not found (spec §5, §8).
import SearchIcon from '../../../components/icons/search';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { isCancelled } from '../../../lib/api.ts';
import { RADIUS_DEFAULT, RADIUS_OFF, RADIUS_OPTIONS, SEARCH_BOX_WIDTH_PX } from '../../../lib/constants.ts';
import { useLazySearchDevicesQuery } from '../api/search-api.ts';
import { NOT_FOUND, stateOf, type SearchState } from './search-state.ts';

const RESULTS_PATH = '/search';

export function SearchBox() {
  const { t } = useTranslation('search');
  const navigate = useNavigate();
  const [term, setTerm] = useState('');
  const [radius, setRadius] = useState(RADIUS_DEFAULT);
  const [search, { isFetching }] = useLazySearchDevicesQuery();

  const show = (state: SearchState) => navigate(RESULTS_PATH, { state });

  const run = async () => {
    const q = term.trim();
    if (!q) {
      await show(NOT_FOUND);
      return;
    }
    try {
      await show(stateOf(await search({ q, radius }).unwrap(), { q, radius }));
    } catch (error) {
      if (!isCancelled(error)) await show(NOT_FOUND);
    }
  };

  return (
    <Paper
      component="form"
      role="search"
      elevation={0}
      onSubmit={(event) => {
        event.preventDefault();
        void run();
      }}
      sx={{ display: 'flex', alignItems: 'center', gap: 1, width: SEARCH_BOX_WIDTH_PX, maxWidth: '100%', minWidth: 0, py: 0.25, pl: 1.5, pr: 0.5 }}
    >
      <InputBase
        type="search"
        value={term}
        onChange={(event) => {
          setTerm(event.target.value);
        }}
        placeholder={t('box.label')}
        slotProps={{ input: { 'aria-label': t('box.label') } }}
        sx={{ flex: 1, minWidth: 0 }}
      />
      <TextField
        select
        variant="standard"
        size="small"
        label={t('box.radius')}
        value={radius}
        onChange={(event) => {
          setRadius(Number(event.target.value));
        }}
        sx={{ width: '5.5rem', flexShrink: 0 }}
      >
        {RADIUS_OPTIONS.map((option) => (
          <MenuItem key={option} value={option}>
            {option === RADIUS_OFF ? t('box.radiusOff') : t('box.radiusMetres', { value: option })}
          </MenuItem>
        ))}
      </TextField>
      <IconButton type="submit" aria-label={t('box.submit')} loading={isFetching}>
        <SearchIcon />
      </IconButton>
    </Paper>
  );
}
