import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportClientError } from '@/lib/clientLog';
import { useT } from '@/lib/i18n';
import { useWording } from '@/lib/wording';

interface Props {
  children: ReactNode;
  fallback?: ReactNode;
}

/** WidgetFailed stands in for a part of the page that failed; a function component, so it follows a change of language. */
function WidgetFailed() {
  const t = useT();
  const { staff } = useWording();
  return (
    <div className="notice notice--error" role="alert">
      <p>{t('common.widgetFailed', { staff })}</p>
    </div>
  );
}

/** ErrorBoundary keeps a failing widget from blanking the page. */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('widget failed', error.message, info.componentStack?.split('\n')[1]);
    // The server hears only that a part of this route failed: no message, no stack.
    reportClientError('ui.widget_failed');
  }

  render(): ReactNode {
    if (this.state.failed) {
      return this.props.fallback ?? <WidgetFailed />;
    }
    return this.props.children;
  }
}
