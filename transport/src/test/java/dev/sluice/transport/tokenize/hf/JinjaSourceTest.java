package dev.sluice.transport.tokenize.hf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What {@link JinjaSource} and {@link TemplateRewriter} change in a template for Jinjava, and what they leave. */
class JinjaSourceTest {
    @Test
    void shouldParenthesizeKeywordArgumentValues() {
        assertEquals("{% set ns = namespace(a=(true), b=(xs|length - 1)) %}",
            JinjaSource.prepare("{% set ns = namespace(a=true, b=xs|length - 1) %}"));
        assertEquals("{{ f(x=(g(y=(1), z=(2 + 3))), w=(a == b)) }}",
            JinjaSource.prepare("{{ f(x=g(y=1, z=2 + 3), w=a == b) }}"));
        assertEquals("{{ x | tojson(indent=(2)) }}", JinjaSource.prepare("{{ x | tojson(indent=2) }}"));
    }

    @Test
    void shouldGiveNotTheWholeTestOrComparisonAfterIt() {
        assertEquals("{% if not ( add_generation_prompt is defined) %}",
            JinjaSource.prepare("{% if not add_generation_prompt is defined %}"));
        assertEquals("{{- not ( a == b) and not ( c in d) or x is not none and y not in z -}}",
            JinjaSource.prepare("{{- not a == b and not c in d or x is not none and y not in z -}}"));
        assertEquals("{{ 'a' if not ( m['k'] is string) else f(x=(not ( y))) }}",
            JinjaSource.prepare("{{ 'a' if not m['k'] is string else f(x=not y) }}"));
    }

    @Test
    void shouldTurnSlicesIntoCalls() {
        assertEquals("{%- for m in messages.py_slice(none, none, -1) %}",
            JinjaSource.prepare("{%- for m in messages[::-1] %}"));
        assertEquals("{{ a.py_slice(1, none, none) }}{{ a.py_slice(none, n - 1, none) }}{{ a.py_slice(-2, none, 2) }}",
            JinjaSource.prepare("{{ a[1:] }}{{ a[:n - 1] }}{{ a[-2::2] }}"));
        assertEquals("{{ m['content'].py_slice(0, 3, none)[0] }}",
            JinjaSource.prepare("{{ m['content'][0:3][0] }}"));
    }

    @Test
    void shouldLeaveTextStringsCommentsRawBlocksAndOtherBracketsAlone() {
        String untouched = "text f(a=1) [1:2] {# f(a=1) x[1:] #}{% raw %}{{ x[1:] }}{% endraw %}"
            + "{{ 'x[1:]' ~ \"f(a=1)\" }}{{ {'k': [1, 2]}['k'] }}{% if a == b %}{% set x = [1, 2] %}{% endif %}"
            + "{% macro m(a, b=1) %}{% endmacro %}";
        assertEquals(untouched, JinjaSource.prepare(untouched));
    }

    @Test
    void shouldReadLinesAsJinja2DoesDroppingOneTrailingNewline() {
        assertEquals("a\nb\nc\n", JinjaSource.prepare("a\r\nb\rc\n\n"));
        assertEquals("a\nb", JinjaSource.prepare("a\u2028b\n"));
    }

    @Test
    void shouldStripBlocksOnlyFromTheStartOfTheirLineAndTrimTheNewlineAfterThem() {
        assertEquals("a\n{% if x %}b\n{% endif %}c", JinjaSource.prepare("a\n  {% if x %}\nb\n\t{% endif %}\nc"));
        assertEquals("x {% if x %}y{% endif %} z", JinjaSource.prepare("x {% if x %}y{% endif %} z"));
        assertEquals("a\n  {% if x %}b{% endif %}\nc", JinjaSource.prepare("a\n  {%+ if x %}\nb{% endif +%}\nc"));
        assertEquals("a\n{# note #}b", JinjaSource.prepare("a\n  {# note #}\nb"));
        assertEquals("{% raw %}\n x {% endraw %}y", JinjaSource.prepare("  {% raw %}\n x {% endraw %}\ny"));
        assertEquals("a\n  {{ v }}\nb", JinjaSource.prepare("a\n  {{ v }}\nb"), "expressions are not blocks");
    }
}
