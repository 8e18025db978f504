// Loading a kimivl mmproj file (keys and tensors as llama.cpp's tools/mtmd/clip.cpp reads them).
#include "model/vision/vision_model.h"

#include "kernels/weight_rows.h"
#include "tensor/fp16.h"

#include <cmath>
#include <initializer_list>

namespace folio::vision {

namespace {

std::string shape_string(const std::array<int64_t, 4>& ne) {
    size_t n = 4;
    while (n > 1 && ne[n - 1] == 1)
        --n;
    std::string s = "[";
    for (size_t d = 0; d < n; ++d)
        s += (d ? ", " : "") + std::to_string(ne[d]);
    return s + "]";
}

class Loader {
public:
    explicit Loader(const gguf::File& f) : f_(f) {}

    Expected<uint32_t> u32(const char* key) const {
        auto v = f_.get_u32(key);
        if (!v)
            return v.error();
        if (!v->has_value())
            return missing(key);
        return **v;
    }

    Expected<const gguf::TensorInfo*> tensor(const std::string& name,
                                             std::initializer_list<int64_t> shape) const {
        const gguf::TensorInfo* t = f_.find_tensor(name);
        if (t == nullptr)
            return make_error(ErrorCode::NotFound,
                              f_.path() + ": tensor '" + name + "' is missing (kimivl mmproj)");
        std::array<int64_t, 4> want{1, 1, 1, 1};
        size_t d = 0;
        for (int64_t n : shape)
            want[d++] = n;
        if (t->ne != want)
            return make_error(ErrorCode::Format, f_.path() + ": tensor '" + name + "' has ne " +
                                                     shape_string(t->ne) + ", expected " +
                                                     shape_string(want));
        if (!dtype_is_computable(t->type))
            return make_error(ErrorCode::Unsupported,
                              f_.path() + ": tensor '" + name + "' has type " +
                                  std::string(dtype_name(t->type)) + ", not supported");
        return t;
    }

    // A tensor converted to f32 (norms, biases, the position table).
    Expected<std::vector<float>> floats(const std::string& name,
                                        std::initializer_list<int64_t> shape) const {
        FOLIO_TRY(t, tensor(name, shape));
        std::vector<float> out(static_cast<size_t>(t->n_elements()));
        const int64_t rows = t->n_elements() / t->ne[0];
        for (int64_t r = 0; r < rows; ++r) {
            Status s = dequantize_row(t->type, t->data + static_cast<size_t>(r) * t->row_bytes(),
                                      out.data() + r * t->ne[0], t->ne[0]);
            if (!s)
                return make_error(s.error().code,
                                  f_.path() + ": tensor '" + name + "': " + s.error().message);
        }
        return out;
    }

    // A weight matrix W with ne [k, n] used by matmul as is.
    Expected<TensorView> matrix(const std::string& name, int64_t k, int64_t n) const {
        FOLIO_TRY(t, tensor(name, {k, n}));
        return tensor_view_of(*t);
    }

    Error missing(const char* key) const {
        return make_error(ErrorCode::NotFound,
                          f_.path() + ": required key '" + std::string(key) + "' is missing");
    }

    const gguf::File& file() const { return f_; }

private:
    const gguf::File& f_;
};

Status read_hparams(const Loader& l, VisionHParams* hp) {
    const gguf::File& f = l.file();
    const std::string& path = f.path();
    FOLIO_TRY(arch, f.architecture());
    if (arch != "clip")
        return make_error(ErrorCode::Unsupported,
                          path + ": general.architecture is '" + arch + "', expected 'clip'");
    auto proj = f.get_string("clip.projector_type");
    if (!proj)
        return proj.error();
    if (!proj->has_value())
        return l.missing("clip.projector_type");
    if (**proj != "kimivl")
        return make_error(ErrorCode::Unsupported, path + ": projector type '" + **proj +
                                                      "' is not supported (only kimivl)");
    auto has_vision = f.get_bool("clip.has_vision_encoder");
    if (!has_vision)
        return has_vision.error();
    if (!has_vision->has_value() || !**has_vision)
        return make_error(ErrorCode::Format, path + ": clip.has_vision_encoder must be true");
    auto use_gelu = f.get_bool("clip.use_gelu");
    if (!use_gelu)
        return use_gelu.error();
    hp->use_gelu = use_gelu->value_or(false);

    FOLIO_TRY(image_size, l.u32("clip.vision.image_size"));
    FOLIO_TRY(patch_size, l.u32("clip.vision.patch_size"));
    FOLIO_TRY(n_embd, l.u32("clip.vision.embedding_length"));
    FOLIO_TRY(n_ff, l.u32("clip.vision.feed_forward_length"));
    FOLIO_TRY(n_layer, l.u32("clip.vision.block_count"));
    FOLIO_TRY(n_head, l.u32("clip.vision.attention.head_count"));
    FOLIO_TRY(n_embd_text, l.u32("clip.vision.projection_dim"));
    hp->image_size = image_size;
    hp->patch_size = patch_size;
    hp->n_embd = n_embd;
    hp->n_ff = n_ff;
    hp->n_layer = n_layer;
    hp->n_head = n_head;
    hp->n_embd_text = n_embd_text;

    auto merge = f.get_u32("clip.vision.projector.scale_factor");
    if (!merge)
        return merge.error();
    hp->merge = merge->value_or(1);
    auto eps = f.get_f32("clip.vision.attention.layer_norm_epsilon");
    if (!eps)
        return eps.error();
    if (!eps->has_value())
        return l.missing("clip.vision.attention.layer_norm_epsilon");
    hp->eps = **eps;

    for (const char* key : {"clip.vision.image_mean", "clip.vision.image_std"}) {
        auto arr = f.get_f32_array(key);
        if (!arr)
            return arr.error();
        if (!arr->has_value())
            return l.missing(key);
        const std::vector<float>& v = **arr;
        if (v.size() < 3)
            return make_error(ErrorCode::Format,
                              path + ": key '" + std::string(key) + "' needs at least 3 values");
        std::array<float, 3>& dst =
            std::string_view(key) == "clip.vision.image_mean" ? hp->image_mean : hp->image_std;
        for (size_t c = 0; c < 3; ++c)
            dst[c] = v[c];
    }
    for (float s : hp->image_std)
        if (!(s > 0.0f))
            return make_error(ErrorCode::Format, path + ": clip.vision.image_std must be > 0");

    if (patch_size == 0 || patch_size > 64 || n_embd == 0 || n_head == 0 || n_layer == 0 ||
        n_ff == 0 || n_embd_text == 0 || n_embd > 65536 || n_ff > 262144 || n_layer > 1024 ||
        n_embd_text > 262144)
        return make_error(ErrorCode::Format, path + ": implausible vision hyper-parameters");
    if (n_embd % n_head != 0 || (n_embd / n_head) % 4 != 0)
        return make_error(
            ErrorCode::Format,
            path + ": head size embedding_length/head_count = " + std::to_string(n_embd) + "/" +
                std::to_string(n_head) + " must be a multiple of 4 (2D RoPE)");
    if (hp->merge != 2)
        return make_error(ErrorCode::Unsupported, path + ": clip.vision.projector.scale_factor = " +
                                                      std::to_string(hp->merge) +
                                                      ", kimivl needs 2 (2x2 merge)");
    return {};
}

} // namespace

PreprocessParams VisionModel::preprocess_params() const {
    PreprocessParams p;
    p.patch_size = static_cast<int>(hp.patch_size);
    p.merge = static_cast<int>(hp.merge);
    p.min_tokens = hp.min_tokens;
    p.max_tokens = hp.max_tokens;
    p.mean = hp.image_mean;
    p.std = hp.image_std;
    return p;
}

Expected<int64_t> VisionModel::image_rows(int width, int height) const {
    const PreprocessParams p = preprocess_params();
    FOLIO_TRY(canvas, target_size(width, height, p));
    return static_cast<int64_t>(canvas.width / p.align()) * (canvas.height / p.align());
}

Expected<VisionModel> load_vision_model(const std::string& path) {
    FOLIO_TRY(file, gguf::File::open(path));
    VisionModel m;
    const Loader l(*file);
    FOLIO_CHECK(read_hparams(l, &m.hp));
    const VisionHParams& hp = m.hp;
    const int64_t e = hp.n_embd, ff = hp.n_ff, p = hp.patch_size, t = hp.n_embd_text;

    FOLIO_TRY(patch, l.tensor("v.patch_embd.weight", {p, p, 3, e}));
    m.patch_w = make_tensor_view(patch->type, {p * p * 3, e, 1, 1}, patch->data);
    {
        FOLIO_TRY(w, l.floats("v.patch_embd.weight", {p, p, 3, e}));
        for (float& f : w)
            f = fp16_to_fp32(fp32_to_fp16(f));
        m.patch_w_f16 = std::move(w);
    }
    FOLIO_TRY(patch_b, l.floats("v.patch_embd.bias", {e}));
    m.patch_b = std::move(patch_b);

    const gguf::TensorInfo* pos = file->find_tensor("v.position_embd.weight");
    if (pos == nullptr)
        return make_error(ErrorCode::NotFound,
                          path + ": tensor 'v.position_embd.weight' is missing (kimivl mmproj)");
    const auto side =
        static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(pos->ne[1]))));
    if (side <= 0 || side * side != pos->ne[1])
        return make_error(ErrorCode::Format, path + ": v.position_embd.weight has " +
                                                 std::to_string(pos->ne[1]) +
                                                 " positions, not a square grid");
    m.hp.pos_grid = static_cast<uint32_t>(side);
    FOLIO_TRY(pos_embd, l.floats("v.position_embd.weight", {e, side * side}));
    m.pos_embd = std::move(pos_embd);

    m.layers.resize(hp.n_layer);
    for (uint32_t i = 0; i < hp.n_layer; ++i) {
        VisionLayer& L = m.layers[i];
        const std::string b = "v.blk." + std::to_string(i) + ".";
        FOLIO_TRY(ln1_w, l.floats(b + "ln1.weight", {e}));
        FOLIO_TRY(ln1_b, l.floats(b + "ln1.bias", {e}));
        FOLIO_TRY(ln2_w, l.floats(b + "ln2.weight", {e}));
        FOLIO_TRY(ln2_b, l.floats(b + "ln2.bias", {e}));
        FOLIO_TRY(q_w, l.matrix(b + "attn_q.weight", e, e));
        FOLIO_TRY(k_w, l.matrix(b + "attn_k.weight", e, e));
        FOLIO_TRY(v_w, l.matrix(b + "attn_v.weight", e, e));
        FOLIO_TRY(o_w, l.matrix(b + "attn_out.weight", e, e));
        FOLIO_TRY(up_w, l.matrix(b + "ffn_up.weight", e, ff));
        FOLIO_TRY(down_w, l.matrix(b + "ffn_down.weight", ff, e));
        FOLIO_TRY(q_b, l.floats(b + "attn_q.bias", {e}));
        FOLIO_TRY(k_b, l.floats(b + "attn_k.bias", {e}));
        FOLIO_TRY(v_b, l.floats(b + "attn_v.bias", {e}));
        FOLIO_TRY(o_b, l.floats(b + "attn_out.bias", {e}));
        FOLIO_TRY(up_b, l.floats(b + "ffn_up.bias", {ff}));
        FOLIO_TRY(down_b, l.floats(b + "ffn_down.bias", {e}));
        L.ln1_w = std::move(ln1_w);
        L.ln1_b = std::move(ln1_b);
        L.ln2_w = std::move(ln2_w);
        L.ln2_b = std::move(ln2_b);
        L.q_w = q_w;
        L.k_w = k_w;
        L.v_w = v_w;
        L.o_w = o_w;
        L.up_w = up_w;
        L.down_w = down_w;
        L.q_b = std::move(q_b);
        L.k_b = std::move(k_b);
        L.v_b = std::move(v_b);
        L.o_b = std::move(o_b);
        L.up_b = std::move(up_b);
        L.down_b = std::move(down_b);
    }
    FOLIO_TRY(post_w, l.floats("v.post_ln.weight", {e}));
    FOLIO_TRY(post_b, l.floats("v.post_ln.bias", {e}));
    FOLIO_TRY(norm_w, l.floats("mm.input_norm.weight", {e}));
    FOLIO_TRY(norm_b, l.floats("mm.input_norm.bias", {e}));
    FOLIO_TRY(mm1_w, l.matrix("mm.1.weight", 4 * e, 4 * e));
    FOLIO_TRY(mm1_b, l.floats("mm.1.bias", {4 * e}));
    FOLIO_TRY(mm2_w, l.matrix("mm.2.weight", 4 * e, t));
    FOLIO_TRY(mm2_b, l.floats("mm.2.bias", {t}));
    m.post_ln_w = std::move(post_w);
    m.post_ln_b = std::move(post_b);
    m.mm_norm_w = std::move(norm_w);
    m.mm_norm_b = std::move(norm_b);
    m.mm1_w = mm1_w;
    m.mm1_b = std::move(mm1_b);
    m.mm2_w = mm2_w;
    m.mm2_b = std::move(mm2_b);

    // The ViT MLP follows clip.use_gelu; the kimivl projector always uses the tanh GELU.
    m.gelu_tanh = make_gelu_table(GeluKind::Tanh);
    if (!hp.use_gelu)
        m.gelu_quick = make_gelu_table(GeluKind::Quick);
    m.file = std::move(file);
    return m;
}

} // namespace folio::vision
