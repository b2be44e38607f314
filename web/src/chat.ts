/**
 * The chat panel (docs/social.md "Chat"): one room's history (newest last),
 * its new messages live over graphql-ws (the `chatMessage` subscription; on a
 * dropped connection the history is read again and the subscription reopened),
 * a message a moderator removes dropped at once (`chatMessageRemoved`),
 * and a one-line form to say something. Used by the match page (its players'
 * and spectators' rooms), the lobby, a tournament's page, a team's page and a
 * direct conversation (#/messages/<username>).
 *
 * A message is shown as text, never markup: every part of it goes through
 * h() (text nodes), nothing through innerHTML. A refusal (CHAT_MUTED with its
 * end, CHAT_CLOSED and why, BLOCKED, RATE_LIMITED and when to try again) is
 * said in words in the panel itself.
 */
import { createClient } from 'graphql-ws';
import type { Client as WsClient } from 'graphql-ws';
import { ScopaError } from '@scopa/sdk';
import type { ChatMessage, ChatRoomRef } from '@scopa/sdk';
import { client, currentSession, freshToken } from './api';
import { h, mount } from './dom';
import { formatDate, formatNumber, t } from './i18n';
import { isModerator, reportDialog } from './moderation';
import { playerLink } from './widgets';

/** The most a message may hold (the service's limit). */
export const CHAT_MAX = 500;
const HISTORY = 50;

export interface ChatPanel {
  readonly el: HTMLElement;
  /** A standing note about the room (e.g. closed while a duplicate round runs); null clears it. */
  setNotice(text: string | null): void;
  /** Reads the history again. */
  reload(): void;
  /** Stops the live connection. */
  close(): void;
}

const CHAT_MESSAGE = `subscription ChatLive($room: ChatRoomInput!) {
  chatMessage(room: $room) { id author text sentAt room { kind id matchRoom participants } }
}`;

/** A moderator's removals in the room: the panel drops each message named. */
const CHAT_MESSAGE_REMOVED = `subscription ChatRemoved($room: ChatRoomInput!) {
  chatMessageRemoved(room: $room) { id }
}`;

/** The GraphQL ChatRoomInput of a REST-style room. */
function roomInput(room: ChatRoomRef): Record<string, unknown> {
  switch (room.kind) {
    case 'match':
      return { kind: 'match', id: room.id, matchRoom: room.matchRoom ?? 'players' };
    case 'lobby':
      return { kind: 'lobby' };
    case 'direct':
      return { kind: 'direct', username: room.username };
    default:
      return { kind: room.kind, id: room.id };
  }
}

/** A refusal of a chat room, in the player's words (the code's message of the errors namespace when chat has none better). */
export function chatRefusal(err: unknown): string {
  if (!(err instanceof ScopaError)) return t('errors:CLIENT');
  const reason = err.reason ?? err.details.reason;
  switch (err.code) {
    case 'CHAT_MUTED': {
      const until = typeof err.details.until === 'string' ? formatDate(err.details.until) : null;
      const why = typeof err.details.reason === 'string' && err.details.reason ? err.details.reason : null;
      if (!until) return t('chat:refusal.mutedLater');
      return why ? t('chat:refusal.mutedUntilBecause', { until, reason: why }) : t('chat:refusal.mutedUntil', { until });
    }
    case 'CHAT_CLOSED':
      switch (reason) {
        case 'duplicateRound':
          return t('chat:refusal.duplicateRound');
        case 'matchInPlay':
          return t('chat:refusal.matchInPlay');
        case 'chatOff':
          return t('chat:refusal.chatOff');
        case 'partners':
          return t('chat:refusal.partners');
        default:
          return t('chat:refusal.closed');
      }
    case 'BLOCKED':
      return t('chat:refusal.blocked');
    case 'RATE_LIMITED': {
      const wait = Math.ceil(Number(err.details.retryAfter ?? err.details.reset ?? 0));
      const kind = reason === 'repeated' ? 'repeated' : 'tooMany';
      return wait > 0 ? t(`chat:refusal.${kind}Wait`, { count: wait, seconds: formatNumber(wait) }) : t(`chat:refusal.${kind}Soon`);
    }
    case 'FORBIDDEN':
      if (reason === 'recipientSetting') return t(err.details.directMessages === 'followed' ? 'chat:refusal.onlyFollowed' : 'chat:refusal.nobody');
      if (reason === 'notConnected') return t('chat:refusal.notConnected');
      return t('errors:FORBIDDEN');
    case 'VALIDATION_FAILED':
      return reason === 'wordFilter' ? t('chat:refusal.wordFilter') : t('errors:VALIDATION_FAILED');
    default:
      return t(`errors:${err.code}`);
  }
}

/** A chat panel on one room. `id` names the panel's element (tests and styles find it by id). */
export function chatPanel(room: ChatRoomRef, opts: { id: string; title?: string; placeholder?: string } = { id: 'chat' }): ChatPanel {
  const me = currentSession()?.username ?? null;
  const messages = new Map<string, ChatMessage>();
  let alive = true;
  let socket: WsClient | null = null;
  /**
   * The sockets acknowledged by the service. One still connecting is closed once acknowledged: closing it sooner
   * logs an error in the browser's console ("closed before the connection is established"), and closing it as it
   * opens makes graphql-ws send its first message on a closed socket (another console error).
   */
  const connected = new WeakSet<WsClient>();
  const closeSocket = () => {
    const s = socket;
    socket = null;
    if (!s) return;
    // After graphql-ws has finished with the message it is handling (an error's close would race its own send).
    const dispose = () => setTimeout(() => void s.dispose(), 0);
    if (connected.has(s)) dispose();
    else s.on('connected', dispose);
  };
  let failures = 0;

  const log = h('ol', { class: 'chat-log', 'aria-live': 'polite' });
  const notice = h('p', { class: 'chat-notice', hidden: true });
  const status = h('p', { class: 'chat-status', role: 'status', hidden: true });
  const input = h('input', {
    class: 'chat-input',
    name: 'text',
    maxlength: CHAT_MAX,
    autocomplete: 'off',
    placeholder: opts.placeholder ?? t('chat:placeholder'),
    'aria-label': t('chat:messageLabel'),
  });
  const send = h('button', { type: 'submit', class: 'chat-send' }, t('chat:send'));
  const form = h('form', { class: 'chat-form', onsubmit: (ev: Event) => void submit(ev) }, input, send);
  const el = h(
    'section',
    { class: 'chat', id: opts.id, 'data-room': room.kind },
    opts.title ? h('h3', { class: 'chat-title' }, opts.title) : null,
    notice,
    log,
    status,
    form,
  );

  const say = (text: string | null) => {
    status.textContent = text ?? '';
    status.hidden = !text;
  };

  const line = (m: ChatMessage): HTMLElement => {
    const mine = m.author === me;
    return h(
      'li',
      { class: mine ? 'chat-msg mine' : 'chat-msg', 'data-message': m.id, 'data-author': m.author },
      h(
        'span',
        { class: 'chat-meta' },
        playerLink(m.author),
        ' ',
        h('time', { class: 'muted small', datetime: m.sentAt }, formatDate(m.sentAt, { timeStyle: 'medium' })),
      ),
      ' ',
      // Text, never markup: h() makes a text node of it.
      h('span', { class: 'chat-text' }, m.text),
      h(
        'span',
        { class: 'chat-actions' },
        mine
          ? null
          : h(
              'button',
              {
                class: 'link small chat-report',
                title: t('chat:reportTitle'),
                onclick: () => reportDialog({ messageId: m.id }, t('chat:messageOf', { author: m.author })),
              },
              t('chat:report'),
            ),
        isModerator()
          ? h(
              'button',
              {
                class: 'link small danger chat-remove',
                title: t('chat:removeTitle'),
                onclick: async () => {
                  try {
                    await client.removeChatMessage(m.id, t('chat:removedReason'));
                    messages.delete(m.id);
                    render();
                  } catch (err) {
                    say(chatRefusal(err));
                  }
                },
              },
              t('chat:remove'),
            )
          : null,
      ),
    );
  };

  const render = () => {
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    const sorted = [...messages.values()].sort((a, b) => a.sentAt.localeCompare(b.sentAt) || a.id.localeCompare(b.id));
    mount(log, sorted.length ? sorted.map(line) : h('li', { class: 'chat-empty muted' }, t('chat:empty')));
    if (atBottom) log.scrollTop = log.scrollHeight;
  };

  const add = (m: ChatMessage) => {
    messages.set(m.id, m);
    render();
  };

  const load = async () => {
    try {
      const page = await client.chatMessages(room, { first: HISTORY });
      if (!alive) return;
      messages.clear();
      for (const m of page.items) messages.set(m.id, m);
      say(null);
      render();
      log.scrollTop = log.scrollHeight;
    } catch (err) {
      if (!alive) return;
      mount(log);
      say(chatRefusal(err));
    }
  };

  const submit = async (ev: Event) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send.disabled = true;
    try {
      const m = await client.sendChatMessage(room, text);
      input.value = '';
      say(null);
      add(m);
      log.scrollTop = log.scrollHeight;
    } catch (err) {
      say(chatRefusal(err));
    } finally {
      send.disabled = false;
      input.focus();
    }
  };

  /** The room's new messages, live; reopened after a drop (the history read again to fill the gap). */
  const listen = () => {
    if (!alive) return;
    const current: WsClient = createClient({
      url: client.webSocketUrl,
      lazy: true,
      retryAttempts: 0,
      on: {
        connected: () => void connected.add(current),
        closed: () => void connected.delete(current),
      },
      connectionParams: async () => {
        const token = await freshToken().catch(() => null);
        return token ? { authorization: `Bearer ${token}` } : {};
      },
    });
    socket = current;
    // On the same socket, before the messages: a message a moderator removes leaves the panel at once (a dropped socket is reopened below).
    current.subscribe<{ chatMessageRemoved: { id: string } }>(
      { query: CHAT_MESSAGE_REMOVED, variables: { room: roomInput(room) } },
      {
        next: (result) => {
          const id = result.data?.chatMessageRemoved?.id;
          if (id && messages.delete(id)) render();
        },
        error: () => undefined,
        complete: () => undefined,
      },
    );
    current.subscribe<{ chatMessage: ChatMessage }>(
      { query: CHAT_MESSAGE, variables: { room: roomInput(room) } },
      {
        next: (result) => {
          failures = 0;
          if (result.errors?.length) {
            say(chatRefusal(ScopaError.fromGraphQL(result.errors[0])));
            return;
          }
          if (result.data?.chatMessage) add(result.data.chatMessage);
        },
        error: (error) => {
          if (socket === current) closeSocket();
          if (!alive) return;
          // A refusal of the room (closed, forbidden) is said and not retried; a dropped connection is reopened.
          if (Array.isArray(error) && error.length) {
            const e = ScopaError.fromGraphQL(error[0]);
            if (!['INTERNAL', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'UNAUTHENTICATED'].includes(e.code)) return say(chatRefusal(e));
          }
          failures++;
          setTimeout(
            () => {
              if (!alive) return;
              void load();
              listen();
            },
            Math.min(30_000, 500 * 2 ** failures),
          );
        },
        complete: () => undefined,
      },
    );
  };

  render();
  void load();
  listen();

  return {
    el,
    setNotice(text) {
      notice.textContent = text ?? '';
      notice.hidden = !text;
    },
    reload: () => void load(),
    close() {
      alive = false;
      closeSocket();
    },
  };
}
