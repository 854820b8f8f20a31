import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { createElement, type ReactNode } from 'react';

type AbstractNode = { tag: string; attrs: Record<string, string>; children?: AbstractNode[] };

function renderNode(node: AbstractNode, key?: number): ReactNode {
  return createElement(
    node.tag,
    { key, ...node.attrs },
    node.children?.map((child, i) => renderNode(child, i)),
  );
}

/**
 * An antd icon drawn from its SVG definition (`@ant-design/icons-svg`) without the
 * `@ant-design/icons` runtime: for pages that load no antd (login, offline banner).
 */
export function SvgIcon({ icon, className }: { icon: IconDefinition; className?: string }) {
  const root = typeof icon.icon === 'function' ? icon.icon('currentColor', 'currentColor') : icon.icon;
  return (
    <span className={className ? `mq-icon ${className}` : 'mq-icon'} role="img" aria-hidden="true">
      {createElement(
        root.tag,
        { ...root.attrs, width: '1em', height: '1em', fill: 'currentColor', focusable: 'false' },
        (root.children as AbstractNode[] | undefined)?.map((child, i) => renderNode(child, i)),
      )}
    </span>
  );
}
