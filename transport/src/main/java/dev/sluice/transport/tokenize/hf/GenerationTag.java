package dev.sluice.transport.tokenize.hf;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.tag.Tag;
import com.hubspot.jinjava.tree.Node;
import com.hubspot.jinjava.tree.TagNode;

/**
 * {@code {% generation %}...{% endgeneration %}}: the engines' chat environment marks with it the parts of a
 * conversation the assistant wrote (for training masks); for rendering a prompt it writes its body as it is.
 */
final class GenerationTag implements Tag {
    private static final long serialVersionUID = 1L;

    @Override
    public String getName() {
        return "generation";
    }

    @Override
    public String interpret(TagNode tagNode, JinjavaInterpreter interpreter) {
        StringBuilder out = new StringBuilder();
        for (Node child : tagNode.getChildren()) {
            out.append(child.render(interpreter).getValue());
        }
        return out.toString();
    }
}
