import { Button, Empty } from 'antd';
import type { ReactNode } from 'react';

/**
 * The empty state of a list table: the page's "nothing here" text (with antd's default
 * picture unless `image` says otherwise) or, when loading failed, the failure text with a
 * retry button. Pages pass their own translated texts.
 */
export function ListEmpty(props: {
  description: string;
  image?: ReactNode;
  failed?: { description: string; retryLabel: string; onRetry: () => void } | false;
}) {
  const { failed } = props;
  if (failed) {
    return (
      <Empty description={failed.description}>
        <Button onClick={failed.onRetry}>{failed.retryLabel}</Button>
      </Empty>
    );
  }
  return <Empty image={props.image} description={props.description} />;
}
