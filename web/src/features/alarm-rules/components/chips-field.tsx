// A list of free texts as chips (alarm types, device ids, email addresses):
// a text is added with Enter or on leaving the field, and a pasted list is
// split on commas, semicolons and spaces; repeats are dropped.
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';

interface Props {
  label: string;
  values: string[];
  onChange: (values: string[]) => void;
  /** Offered as one types; any other text is accepted. */
  suggestions?: readonly string[];
  /** A value's words on its chip and in the suggestions. */
  labelOf?: (value: string) => string;
  error: string | undefined;
  hint: string;
  required?: boolean;
}

const tidy = (values: readonly string[]) => [...new Set(values.flatMap((value) => value.split(/[\s,;]+/)).filter((value) => value !== ''))];

export function ChipsField({ label, values, onChange, suggestions = [], labelOf = (value) => value, error, hint, required = false }: Props) {
  return (
    <Autocomplete
      multiple
      freeSolo
      autoSelect
      filterSelectedOptions
      options={suggestions}
      value={values}
      getOptionLabel={labelOf}
      onChange={(_event, next) => {
        onChange(tidy(next));
      }}
      renderInput={(params) => (
        <TextField {...params} label={label} error={error !== undefined} helperText={error ?? hint} required={required} margin="normal" />
      )}
    />
  );
}
