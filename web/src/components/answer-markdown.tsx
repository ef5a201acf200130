// An answer as the engine wrote it, markdown rendered safely (lib/answer-markdown.ts says how).
import Markdown from 'react-markdown'
import type { ResponseDetail } from '../lib/api'
import { answerMarkdownOptions } from '../lib/answer-markdown'

export function AnswerMarkdown({ content, mentions }: { content: string; mentions: ResponseDetail['mentions'] }) {
  return <Markdown {...answerMarkdownOptions(content, mentions)}>{content}</Markdown>
}
