folio_add_test(test_deepseek2 SOURCES engine/model/test_deepseek2.cpp LIBS folio_engine_internal LABELS engine TIMEOUT 600)
folio_add_test(test_sampler SOURCES engine/runtime/test_sampler.cpp LIBS folio_engine_internal LABELS engine)
# One token's MLPs in one parallel region (engine/model/decoder/token_ffn.cpp) against the batch path.
folio_add_test(test_token_ffn SOURCES engine/model/test_token_ffn.cpp LIBS folio_engine_internal LABELS engine)
# Flash-style prefill attention (engine/model/attention/attention_flash.cpp) against the full-matrix form.
folio_add_test(test_attention_flash SOURCES engine/model/test_attention_flash.cpp LIBS folio_engine_internal LABELS engine)
# The kernel thread count under CPU load (engine/runtime/cpu_share.cpp).
folio_add_test(test_cpu_share SOURCES engine/runtime/test_cpu_share.cpp LIBS folio_engine_internal LABELS engine)
# Decode as one parallel region per token (engine/model/decoder/decode_region.cpp) against a region per kernel.
folio_add_test(test_decode_region SOURCES engine/model/test_decode_region.cpp LIBS folio_engine_internal LABELS engine TIMEOUT 600)
