// The help table's members of the objects that are not tensors: optimizers, Variables and dicts. A layer's
// attributes (weight, bias) are told in its nn entry.
#include "repl/help_table.h"

namespace tr::repl {

std::vector<HelpGroup> object_help() {
  return {
      {"an optimizer's (nn.optim.SGD, Adam, AdamW)",
       HelpKind::Member,
       {
           {"Optimizer.step", "opt.step()",
            "Updates every parameter from its .grad by the optimizer's rule and realizes the new values (and the "
            "optimizer's state) in one schedule. As in tinygrad 0.14 it steps in training mode only: under "
            "`with Context(TRAINING=1):` or in a def decorated with @Context(TRAINING=1).",
            "w = tensor([1.0])\nopt = nn.optim.SGD([w], lr=0.5)\nwith Context(TRAINING=1):\n  (w * 2).sum().backward()\n  opt.step()\nprint(w)"},
           {"Optimizer.zero_grad", "opt.zero_grad()", "Forgets every parameter's .grad, before the next backward.",
            "w = tensor([1.0])\nopt = nn.optim.SGD([w])\n(w * 2).sum().backward()\nopt.zero_grad()\nprint(w.grad)"},
           {"Optimizer.schedule_step", "opt.schedule_step()",
            "The step's new values as a list of lazy tensors, not realized: tinygrad's way to put the step into the "
            "same schedule as the forward and backward. In training mode only, as step.",
            "w = tensor([1.0])\nopt = nn.optim.SGD([w])\nwith Context(TRAINING=1):\n  (w * 2).sum().backward()\n  print(len(opt.schedule_step()))"},
           {"Optimizer.params", "opt.params", "The tensors the optimizer updates, as a list.",
            "opt = nn.optim.Adam([tensor([1.0])])\nprint(len(opt.params))"},
           {"Optimizer.lr", "opt.lr", "The learning rate; assigning to it changes the next steps.",
            "opt = nn.optim.SGD([tensor([1.0])], lr=0.1)\nopt.lr = 0.01\nprint(opt.lr)"},
           {"Optimizer.momentum", "opt.momentum", "SGD's momentum (0 without); settable where it is not 0.",
            "print(nn.optim.SGD([tensor([1.0])], momentum=0.9).momentum)"},
           {"Optimizer.weight_decay", "opt.weight_decay (also opt.wd)",
            "The weight decay: SGD adds it times the parameter to the gradient, AdamW shrinks the parameter by it.",
            "print(nn.optim.AdamW([tensor([1.0])]).weight_decay)"},
           {"Optimizer.b1", "opt.b1", "Adam's decay rate of its first moment (0.9 by default).",
            "print(nn.optim.Adam([tensor([1.0])]).b1)"},
           {"Optimizer.b2", "opt.b2", "Adam's decay rate of its second moment (0.999 by default).",
            "print(nn.optim.Adam([tensor([1.0])]).b2)"},
           {"Optimizer.eps", "opt.eps", "Adam's term added to the second moment's square root, against a division by 0.",
            "print(nn.optim.Adam([tensor([1.0])]).eps)"},
       }},
      {"a Variable's (Variable(name, lo, hi))",
       HelpKind::Member,
       {
           {"Variable.bind", "v.bind(val)",
            "The Variable with the value val (between its lo and hi), to use as a size: the kernels it makes take "
            "val as an argument.",
            "n = Variable(\"n\", 1, 10).bind(4)\nprint(zeros(n).shape)"},
           {"Variable.val", "v.val", "A bound Variable's value.", "print(Variable(\"n\", 1, 10).bind(4).val)"},
           {"Variable.expr", "v.expr", "The Variable's name, or the expression of a size computed from it.",
            "print(Variable(\"n\", 1, 10).expr)"},
           {"Variable.min", "v.min", "The smallest value the Variable may take.", "print(Variable(\"n\", 2, 10).min)"},
           {"Variable.max", "v.max", "The largest value the Variable may take.", "print(Variable(\"n\", 2, 10).max)"},
       }},
      {"a dict's (as Python's)",
       HelpKind::Member,
       {
           {"dict.keys", "d.keys()", "The keys, in the order they were added, as a list.",
            "d = {'a': 1, 'b': 2}\nprint(d.keys())"},
           {"dict.values", "d.values()", "The values, in the keys' order, as a list.", "print({'a': 1}.values())"},
           {"dict.items", "d.items()", "(key, value) pairs, in the keys' order, as a list.",
            "print({'a': 1}.items())"},
           {"dict.get", "d.get(key, default=None)", "d[key], or default when d has no such key.",
            "print({'a': 1}.get('b', 0))"},
       }},
  };
}

}  // namespace tr::repl
