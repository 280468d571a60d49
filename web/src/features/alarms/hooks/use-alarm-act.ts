// Runs one alarm action and tells the user how it went: the server's refusal
// (someone acted first, a closed alarm…) is worded, not just "failed".
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import { errorCode, isForbidden } from '../../../lib/api.ts';
import { useAlarmActionMutation, type AlarmAction } from '../api/alarms-api.ts';

export function useAlarmAct() {
  const { t, i18n } = useTranslation('alarms');
  const notify = useNotice();
  const [send, state] = useAlarmActionMutation();

  const act = async (action: AlarmAction): Promise<boolean> => {
    try {
      await send(action).unwrap();
      notify(t(`actions.done.${action.action}`));
      return true;
    } catch (error) {
      const code = errorCode(error);
      const known = code !== null && i18n.exists(`alarms:actions.errors.${code}`);
      notify(
        known ? t(`actions.errors.${code}` as 'actions.errors.alarm_closed')
        : isForbidden(error) ? t('actions.denied')
        : t('actions.failed'),
        'error',
      );
      return false;
    }
  };
  return { act, busy: state.isLoading };
}
