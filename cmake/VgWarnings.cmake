# Warnings live on one INTERFACE target that every project target links privately.
add_library(vg_warnings INTERFACE)
target_compile_options(vg_warnings INTERFACE -Wall -Wextra -Werror -Werror=unused-result)
