import type { ModalFuncProps } from 'antd';

type T = (key: string, options?: Record<string, unknown>) => string;

/** The leave-tip confirmation (spec section 4 "Tab close"): names the page(s) being left. */
export function leaveConfirmProps(t: T, title: string): ModalFuncProps {
  return {
    title: t('shell:tabs.leave.title'),
    content: t('shell:tabs.leave.content', { title }),
    okText: t('shell:tabs.leave.ok'),
    cancelText: t('shell:tabs.leave.cancel'),
    okButtonProps: { danger: true, 'data-testid': 'tab-leave-ok' },
    cancelButtonProps: { 'data-testid': 'tab-leave-cancel' },
  };
}
